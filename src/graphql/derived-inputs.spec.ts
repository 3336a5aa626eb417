import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { RecordDiagnosisDto } from '../features/diagnoses/diagnosis.dto';
import { MarkUnavailableDto } from '../features/system-writes/system-write.dto';
import { RecordDiagnosisInput } from '../features/diagnoses/diagnosis.input';
import { MarkUnavailableInput } from '../features/system-writes/system-write.input';

/** The messages of the failed properties, as the pipe sees them. */
function problems(cls: new () => object, plain: object): string[] {
  return validateSync(plainToInstance(cls, plain), { forbidUnknownValues: true }).flatMap((e) => Object.values(e.constraints ?? {}));
}

const key = { scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira_search' };

describe('GraphQL inputs derived from the REST shapes (P112)', () => {
  it('lets an admin leave out `by` of a diagnosis and `source` of a system write, which REST requires', () => {
    expect(problems(RecordDiagnosisDto, { ...key, classification: 'WORKING' })).toEqual([
      'by must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -',
    ]);
    expect(problems(RecordDiagnosisInput, { ...key, classification: 'WORKING' })).toEqual([]);
    expect(problems(MarkUnavailableDto, { ...key, code: 'BACKEND_FAILED' })).toEqual([
      'source must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -',
    ]);
    expect(problems(MarkUnavailableInput, { ...key, code: 'BACKEND_FAILED' })).toEqual([]);
  });

  it('keeps every other rule of the REST shape, with the same message', () => {
    const bad = { ...key, toolName: 'no spaces', code: 'NOPE', by: 'a b', source: 'a b' };
    for (const [dto, input] of [
      [RecordDiagnosisDto, RecordDiagnosisInput],
      [MarkUnavailableDto, MarkUnavailableInput],
    ] as const) {
      expect(problems(input, { ...bad, classification: 'WORKING' }).sort()).toEqual(
        problems(dto, { ...bad, classification: 'WORKING' }).sort(),
      );
    }
    expect(problems(MarkUnavailableInput, { ...key, code: 'NOPE' })).toEqual([
      expect.stringMatching(/^code must be one of the following values: /),
    ]);
  });
});
