/** The ids of every document, a slice at a time (P114). */
export interface DocumentIdWalk {
  /** The next `max` ids; fewer only when the walk has reached its end (then every later call answers none). */
  next(max: number): Promise<string[]>;
  close(): Promise<void>;
}
