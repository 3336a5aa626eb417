import { retiredSettingsIn } from './retired-settings';

describe('retiredSettingsIn', () => {
  it('names each retired setting that is present, and why it is ignored', () => {
    const found = retiredSettingsIn({ DB_SINGLE_WRITER: 'true', WRITER_LEASE_TTL_MS: '10000', PORT: '3000' });
    expect(found).toEqual([
      expect.stringMatching(/^DB_SINGLE_WRITER is set but no longer read: every write is version-guarded/),
      expect.stringMatching(/^WRITER_LEASE_TTL_MS is set but no longer read: /),
    ]);
  });

  it('says nothing when none is set', () => {
    expect(retiredSettingsIn({ PORT: '3000', MONGODB_URI: 'mongodb://x' })).toEqual([]);
  });
});
