import { toolHealthRepositoryContract } from '../../../test/contracts/tool-health-repository.contract';
import { aToolHealthDocument } from '../../../test/factories';
import { InMemoryToolHealthRepository } from '../../../test/fakes';
import { ToolStatus } from '../../domain/tool-status';

/** The port's contract against the in-memory fake (the e2e tier runs it against the Mongo adapter). */
describe('ToolHealthRepository contract: InMemoryToolHealthRepository', () => {
  let repository: InMemoryToolHealthRepository;
  beforeEach(() => (repository = new InMemoryToolHealthRepository()));

  toolHealthRepositoryContract(() => repository);

  // What only the fake can show: the version guard, by losing a race on purpose.
  it('reads again when the version moved between its read and its write, running the reducer on the fresh document', async () => {
    const doc = aToolHealthDocument({ version: 3 });
    repository.seed(doc);
    const seen: number[] = [];
    const result = await repository.mutate(doc, (current) => {
      seen.push(current!.version);
      // Another instance writes between this read and the guarded write.
      if (seen.length === 1) repository.seed({ ...current!, version: 4, description: 'theirs' });
      return { ...current!, status: ToolStatus.DOWN };
    });
    expect(seen).toEqual([3, 4]);
    expect(result.after).toMatchObject({ version: 5, description: 'theirs', status: ToolStatus.DOWN });
  });

  it('gives up with CONFLICT after 16 lost races', async () => {
    const doc = aToolHealthDocument();
    repository.seed(doc);
    const mutation = repository.mutate(doc, (current) => {
      repository.seed({ ...current!, version: current!.version + 1 });
      return { ...current!, status: ToolStatus.DOWN };
    });
    await expect(mutation).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(repository.reducerRuns).toBe(16);
  });
});
