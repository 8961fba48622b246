/**
 * The x axis of a usage chart: it spans exactly the range asked for (not the points that happen to be in
 * it), with ticks at round local times spaced for the range: every 10 minutes over an hour, every 3 hours
 * over a day, every day over a week. Times are Unix seconds, as uPlot takes them.
 */
export interface TimeAxis {
  readonly min: number;
  readonly max: number;
  /** Tick times, inside [min, max]. */
  readonly ticks: readonly number[];
  readonly label: (time: number) => string;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Tick spacings, finest first; an axis takes the finest that gives at most MAX_TICKS ticks. */
const SPACINGS = [
  MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
] as const;
const MAX_TICKS = 8;

export function timeAxis(min: number, max: number): TimeAxis {
  const span = Math.max(1, max - min);
  const spacing = SPACINGS.find((s) => span / s <= MAX_TICKS) ?? span / MAX_TICKS;
  const ticks: number[] = [];
  for (let t = firstTick(min, spacing); t <= max && ticks.length <= MAX_TICKS; t = nextTick(t, spacing))
    ticks.push(t);
  return { min, max, ticks, label: (time) => tickLabel(time, spacing) };
}

/** The first round local time at or after `min`: a multiple of the spacing since local midnight. */
function firstTick(min: number, spacing: number): number {
  const date = new Date(min * 1000);
  const midnight = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime() / 1000;
  if (spacing >= DAY) return min === midnight ? min : nextMidnight(midnight);
  const sinceMidnight = min - midnight;
  return midnight + Math.ceil(sinceMidnight / spacing) * spacing;
}

function nextTick(time: number, spacing: number): number {
  if (spacing < DAY) return time + spacing;
  // Whole local days, whatever a daylight saving change does to their length.
  const date = new Date(time * 1000);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + spacing / DAY).getTime() / 1000;
}

function nextMidnight(midnight: number): number {
  const date = new Date(midnight * 1000);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime() / 1000;
}

/** "14:30" within a day, the date at midnight and for day ticks: "Tue 1 Dec". */
function tickLabel(time: number, spacing: number): string {
  const date = new Date(time * 1000);
  const atMidnight = date.getHours() === 0 && date.getMinutes() === 0;
  if (spacing >= DAY || atMidnight)
    return date.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
