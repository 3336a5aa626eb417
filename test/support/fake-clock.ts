import { Clock } from '../../src/runtime/clock';

/** A clock the test moves by hand: ladders of hours run in milliseconds. */
export class FakeClock extends Clock {
  private current: number;

  constructor(start: Date | string = '2026-05-23T14:00:00.000Z') {
    super();
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }

  set(instant: Date | string): void {
    this.current = new Date(instant).getTime();
  }
}
