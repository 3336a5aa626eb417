import { KeyedMutex } from './keyed-mutex';

describe('KeyedMutex', () => {
  it('runs work for one key strictly one after another', async () => {
    const mutex = new KeyedMutex();
    let running = 0;
    let maxRunning = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        mutex.run('k', async () => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await new Promise((r) => setTimeout(r, 1));
          order.push(i);
          running--;
        }),
      ),
    );
    expect(maxRunning).toBe(1);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('lets different keys run at the same time', async () => {
    const mutex = new KeyedMutex();
    let running = 0;
    let maxRunning = 0;
    const work = async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    };
    await Promise.all([mutex.run('a', work), mutex.run('b', work)]);
    expect(maxRunning).toBe(2);
  });

  it('keeps going after a failed job', async () => {
    const mutex = new KeyedMutex();
    await expect(
      mutex.run('k', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(mutex.run('k', async () => 42)).resolves.toBe(42);
  });

  it('runAll holds every key at once: work on any of them waits, other keys do not', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const all = mutex.runAll(['b', 'a', 'b'], async () => {
      events.push('all:start');
      await held;
      events.push('all:end');
    });
    await new Promise((r) => setTimeout(r, 1));
    const onA = mutex.run('a', async () => void events.push('a'));
    const onB = mutex.run('b', async () => void events.push('b'));
    const onC = mutex.run('c', async () => void events.push('c'));
    await onC;
    expect(events).toEqual(['all:start', 'c']);
    release();
    await Promise.all([all, onA, onB]);
    expect(events.slice(0, 3)).toEqual(['all:start', 'c', 'all:end']);
    expect(events.slice(3).sort()).toEqual(['a', 'b']);
  });

  it('runAll with no keys just runs the work', async () => {
    await expect(new KeyedMutex().runAll([], async () => 7)).resolves.toBe(7);
  });
});
