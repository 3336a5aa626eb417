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
    await expect(mutex.run('k', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(mutex.run('k', async () => 42)).resolves.toBe(42);
  });
});
