/**
 * The machine a run happened on, and how busy it was: numbers from a shared 2-core box are only
 * comparable with that context next to them.
 */
import os from 'node:os';

/** A description of the machine and its load. */
export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  /** 1, 5 and 15 minute load averages when the run started. */
  readonly loadBefore: readonly number[];
}

/** Describes this machine now. */
export function describeMachine(): Machine {
  return {
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 2 ** 30,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadBefore: os.loadavg(),
  };
}

/** The current 1, 5 and 15 minute load averages. */
export function loadAverage(): readonly number[] {
  return os.loadavg();
}

/** "0.42, 0.30, 0.25" */
export function formatLoad(load: readonly number[]): string {
  return load.map((value) => value.toFixed(2)).join(', ');
}
