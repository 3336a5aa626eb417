/** Time as a dependency: the domain takes `now` as an argument, and tests swap this provider. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
