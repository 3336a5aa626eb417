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

  it('runAll waits for the work already holding any one of its keys, and releases them when its work fails', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const onB = mutex.run('b', async () => {
      events.push('b:start');
      await held;
      events.push('b:end');
    });
    const all = mutex.runAll(['a', 'b', 'c'], async () => {
      events.push('all');
      throw new Error('boom');
    });
    const onA = mutex.run('a', async () => void events.push('a'));
    await new Promise((r) => setTimeout(r, 1));
    expect(events).toEqual(['b:start']);
    release();
    await onB;
    await expect(all).rejects.toThrow('boom');
    await onA;
    expect(events).toEqual(['b:start', 'b:end', 'all', 'a']);
    await expect(mutex.runAll(['c', 'b'], async () => 'free')).resolves.toBe('free');
  });

  it('runAll calls whose keys overlap in opposite orders both finish, one after the other', async () => {
    const mutex = new KeyedMutex();
    const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(`${name}:start`);
      await new Promise((r) => setTimeout(r, 2));
      order.push(`${name}:end`);
    };
    await Promise.all([mutex.runAll(keys, job('x')), mutex.runAll([...keys].reverse(), job('y')), mutex.runAll(['k7'], job('z'))]);
    expect(order).toEqual(['x:start', 'x:end', 'y:start', 'y:end', 'z:start', 'z:end']);
  });

  it('work queued on a key after one holder has finished still waits for the holder that followed it', async () => {
    const mutex = new KeyedMutex();
    let running = 0;
    let maxRunning = 0;
    const job = (ms: number) => async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
    };
    const first = mutex.run('k', job(1));
    const second = mutex.run('k', job(20));
    await first;
    await mutex.run('k', job(1));
    await second;
    expect(maxRunning).toBe(1);
  });
});
