// The request bodies of the bench's scenarios, shared by bench/run.mjs (and row s through it) and
// bench/ab.mjs, so that an A/B run sends exactly the requests `npm run bench` measures.
import { BASE, contextIds, failToolOfUser, manifestTool, successTool } from './seed.mjs';

const contextOf = contextIds;

export const bodies = {
  success: (i) => ({ toolName: successTool(i), context: contextOf(i) }),
  failureDistinct: (i) => {
    const u = i % BASE.users;
    return {
      toolName: failToolOfUser(u),
      context: { ...contextOf(i), userId: `u-${u}` },
      code: 'BACKEND_FAILED',
      errorSignature: BASE.failSignature,
      message: '500 Internal Server Error',
    };
  },
  failureHot: (i) => ({
    toolName: BASE.hotTool,
    context: contextOf(i),
    code: 'BACKEND_UNREACHABLE',
    errorSignature: BASE.hotSignature,
    message: 'connect ECONNREFUSED',
  }),
  /** Each payload a tool of its own: the checker's classification sets a cooldown, inserting the user's document (a write). */
  failureNewCooldown: (prefix) => (i) => ({
    toolName: `${prefix}_${i}`,
    context: contextOf(i),
    code: 'BACKEND_FAILED',
    errorSignature: 'http-403',
    classification: 'USER_PERMISSION',
    message: '403 Forbidden',
  }),
  annotate: (n) => (i) => ({
    tools: Array.from({ length: n }, (_, j) => ({
      name: manifestTool(j),
      description: `Tool ${j}: searches the project's issue tracker and returns matching issues with their status.`,
      safety: j % 3 === 0 ? 'SAFE_PROBE' : 'READ_ONLY',
    })),
    context: { ...contextOf(i), projectId: `p-${i % 5}` },
    engineRoles: [],
    timeZone: 'Europe/Berlin',
  }),
};
/** f (D22): a batch as the dispatcher sends what piled up — 95 clean successes and 5 failures in cooldown. */
bodies.batch = (size, failures) => (i) => ({
  items: Array.from({ length: size }, (_, j) => {
    const k = i * size + j;
    return j < failures ? { outcome: 'failure', ...bodies.failureDistinct(k) } : { outcome: 'success', ...bodies.success(k) };
  }),
});
/** g (D22): an MCP server's connection closed — its tools DOWN at one project, in one request (n > 1) or one tool. */
bodies.systemWrite = (n) => (i) =>
  n === 1
    ? {
        scope: 'PROJECT',
        scopeId: `g-p-${i % 64}`,
        toolName: `g_tool_${i % 200}`,
        code: 'BACKEND_UNREACHABLE',
        source: 'mcp-router',
        note: 'connection closed',
      }
    : {
        scope: 'PROJECT',
        scopeId: `g-p-${i % 64}`,
        toolNames: Array.from({ length: n }, (_, j) => `g_tool_${j}`),
        code: 'BACKEND_UNREACHABLE',
        source: 'mcp-router',
        note: 'connection closed',
      };
/**
 * c-changes (D23): 200 tools without descriptions, 5 of them DOWN (mf_0, mf_10 … GLOBAL, seeded),
 * the other 195 plainly usable; projects past the first five, which hold no PROJECT outages.
 */
const PLAIN_MANIFEST_TOOLS = Array.from({ length: BASE.manifestTools }, (_, j) => j).filter((j) => j % 10 > 1 && j % 7 !== 0);
bodies.annotateChanges = (n, problems) => (i) => ({
  tools: [0, 10, 20, 30, 40]
    .slice(0, problems)
    .map((j) => ({ name: manifestTool(j) }))
    .concat(
      Array.from({ length: n - problems }, (_, k) => ({
        name: k < PLAIN_MANIFEST_TOOLS.length ? manifestTool(PLAIN_MANIFEST_TOOLS[k]) : `plain_${k}`,
      })),
    ),
  context: { ...contextOf(i), projectId: `p-${5 + (i % 45)}` },
  engineRoles: [],
  timeZone: 'Europe/Berlin',
});
