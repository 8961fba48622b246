import { describe, expect, it } from 'vitest';

import type { ProvisioningState, VirtualMachine } from '../../api/api-resources.js';
import {
  availablePowerActions,
  isVmSettled,
  PENDING_ACTION_TIMEOUT_MS,
  RESTART_WATCH_MS,
  vmStatusLabel,
} from './vm-state.js';

const vm = (provisioningState: ProvisioningState) => ({ provisioningState });
const T = 1_000_000;

describe('VM polling', () => {
  it('keeps reading a VM that is on its way, and stops once it arrives', () => {
    expect(isVmSettled(vm('PROVISIONING'), undefined, T)).toBe(false);
    expect(isVmSettled(vm('WAITING_FOR_AGENT'), undefined, T)).toBe(false);
    expect(isVmSettled(vm('RUNNING'), undefined, T)).toBe(true);
    expect(isVmSettled(vm('FAILED'), undefined, T)).toBe(true);
  });

  it('keeps reading a stopped VM until the hypervisor’s power line says so too', () => {
    const stop = { action: 'stop' as const, since: T };
    const stopped = (powerState: VirtualMachine['powerState']) => ({
      provisioningState: 'STOPPED' as const,
      powerState,
    });
    expect(isVmSettled(stopped('POWER_STATE_RUNNING'), stop, T + 1000)).toBe(false);
    expect(isVmSettled(stopped('POWER_STATE_STOPPED'), stop, T + 1000)).toBe(true);
    // Nothing reported the power at all: the state alone decides.
    expect(isVmSettled(stopped('POWER_STATE_UNKNOWN'), stop, T + 1000)).toBe(true);
    expect(isVmSettled(stopped('POWER_STATE_RUNNING'), stop, T + PENDING_ACTION_TIMEOUT_MS)).toBe(true);
  });

  it('waits for a stop to show even though the VM still reads Running', () => {
    const stop = { action: 'stop' as const, since: T };
    expect(isVmSettled(vm('RUNNING'), stop, T + 1000)).toBe(false);
    expect(vmStatusLabel(vm('RUNNING'), stop, T + 1000)).toBe('Stopping');
    expect(isVmSettled(vm('STOPPED'), stop, T + 5000)).toBe(true);
    expect(vmStatusLabel(vm('STOPPED'), stop, T + 5000)).toBe('Stopped');
  });

  it('watches a restart for a while, since the VM reads Running throughout', () => {
    const restart = { action: 'restart' as const, since: T };
    expect(isVmSettled(vm('RUNNING'), restart, T + RESTART_WATCH_MS - 1)).toBe(false);
    expect(isVmSettled(vm('RUNNING'), restart, T + RESTART_WATCH_MS)).toBe(true);
  });

  it('gives up waiting after the timeout, and on a failure', () => {
    const start = { action: 'start' as const, since: T };
    expect(isVmSettled(vm('STOPPED'), start, T + PENDING_ACTION_TIMEOUT_MS)).toBe(true);
    expect(isVmSettled(vm('FAILED'), start, T + 1)).toBe(true);
  });
});

describe('power buttons', () => {
  it('offer what applies to the state, and nothing while an action is under way', () => {
    expect(availablePowerActions(vm('RUNNING'), undefined, T)).toEqual({
      start: false,
      stop: true,
      restart: true,
    });
    expect(availablePowerActions(vm('STOPPED'), undefined, T)).toEqual({
      start: true,
      stop: false,
      restart: false,
    });
    expect(availablePowerActions(vm('RUNNING'), { action: 'stop', since: T }, T + 1)).toEqual({
      start: false,
      stop: false,
      restart: false,
    });
    expect(availablePowerActions(vm('PROVISIONING'), undefined, T)).toEqual({
      start: false,
      stop: false,
      restart: false,
    });
  });
});
