// Preloaded into the service by scripts/start.mjs (`node --require`): when the start script dies
// without stopping it (SIGKILL, crash), its IPC channel closes and the service stops itself with
// SIGTERM, through Nest's shutdown hooks, instead of living on as an orphan (P34). The channel is
// unref'd so it never keeps a finished service alive. Not used in production (node dist/main.js).
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => {
    process.stderr.write('start script gone: stopping the service\n');
    process.kill(process.pid, 'SIGTERM');
  });
}
