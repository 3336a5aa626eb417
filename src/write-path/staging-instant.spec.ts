import { stagingInstant } from './staging-instant';

describe('stagingInstant', () => {
  it('is strictly increasing, however fast it is called, and never behind the wall clock', () => {
    const before = Date.now();
    const instants = Array.from({ length: 5_000 }, () => stagingInstant());
    for (let i = 1; i < instants.length; i++) expect(instants[i]).toBeGreaterThan(instants[i - 1]);
    expect(instants[0]).toBeGreaterThanOrEqual(before);
  });
});
