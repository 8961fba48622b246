import { describeCapacity, type CapacityBar } from './node-capacity.js';

/** The sentence says it all; the drawing under it repeats it for the eye and is hidden from screen readers. */
export function CapacityMeter({ bar }: { readonly bar: CapacityBar }) {
  return (
    <div className="capacity">
      <p className={bar.oversold ? 'capacity-text field-error' : 'capacity-text'}>{describeCapacity(bar)}</p>
      {bar.reported && (
        <div className="capacity-bar" aria-hidden="true">
          <span className="capacity-others" style={{ width: `${bar.othersShare}%` }} />
          <span
            className={bar.oversold ? 'capacity-sold capacity-sold-over' : 'capacity-sold'}
            style={{ width: `${bar.soldShare}%` }}
          />
          {bar.physicalMark < 100 && (
            <span className="capacity-mark capacity-mark-physical" style={{ left: `${bar.physicalMark}%` }} />
          )}
          <span className="capacity-mark capacity-mark-sellable" style={{ left: `${bar.sellableMark}%` }} />
        </div>
      )}
    </div>
  );
}
