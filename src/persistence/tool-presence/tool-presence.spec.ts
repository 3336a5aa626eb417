import { Collection } from 'mongodb';
import { Scope } from '../../domain/scope';
import { ToolPresence } from './tool-presence';
import { ToolPresenceRecord } from './tool-presence.schema';

describe('ToolPresence', () => {
  // The manifest read builds a listed name's `_id` on the server without escaping and reads the
  // lists as data of an aggregation (P363): a name outside D3a must never enter a list, and is
  // refused before anything is written.
  const untouched = () => {
    throw new Error('the list was written');
  };
  const presence = new ToolPresence(untouched as unknown as () => Collection<ToolPresenceRecord>);

  it.each(['a|b', '50%', '$status', ''])('refuses to list %j, a name outside the tool-name character set', async (toolName) => {
    await expect(presence.add({ scope: Scope.GLOBAL, scopeId: null, toolName })).rejects.toThrow('cannot hold the name');
    await expect(
      presence.addMany([
        { scope: Scope.USER, scopeId: 'alice', toolName: 'jira' },
        { scope: Scope.USER, scopeId: 'alice', toolName },
      ]),
    ).rejects.toThrow('cannot hold the name');
  });
});
