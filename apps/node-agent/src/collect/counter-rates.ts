import { AgingMap } from './aging-map.js';

interface CounterReading {
  value: number;
  timeMs: number;
}

/**
 * Per-second rates of cumulative counters between consecutive readings, computed the way metrics-server and
 * OpenTelemetry's scrape-based CPU do: no rate on a key's first reading; none while the reading's time has
 * not advanced (the older reading stays the baseline); none when the counter went down or time went back
 * (a restart: the new reading becomes the baseline).
 */
export class CounterRates {
  private readonly readings: AgingMap<CounterReading>;

  constructor(idleRoundsBeforeForgetting: number) {
    this.readings = new AgingMap(idleRoundsBeforeForgetting);
  }

  rate(key: string, value: number, timeMs: number): number | undefined {
    const previous = this.readings.use(key, () => ({ value, timeMs }));
    if (previous.timeMs === timeMs) return undefined;
    const elapsedSeconds = (timeMs - previous.timeMs) / 1000;
    const increase = value - previous.value;
    previous.value = value;
    previous.timeMs = timeMs;
    return elapsedSeconds > 0 && increase >= 0 ? increase / elapsedSeconds : undefined;
  }

  endRound(): void {
    this.readings.endRound();
  }
}
