import { pathToFileURL } from 'node:url';

/**
 * The demo gateways' process: the gateway agent (apps/gateway) tied to the server that started
 * it. A real edge box outlives the server; a demo gateway must not: after a kill -9 of the server
 * an orphan would keep its buffer directories locked and the restarted server's gateways would
 * retry forever. It stops (cleanly, as on SIGTERM) when the IPC channel to its parent closes —
 * the kernel closes it when the parent dies, however it dies — or when it is re-parented.
 */
const parentPid = process.ppid;
let leaving = false;
const leave = () => {
  if (leaving) return;
  leaving = true;
  process.kill(process.pid, 'SIGTERM');
  // The agent's own stop is bounded; this is the backstop should it hang.
  setTimeout(() => process.exit(1), 10_000).unref();
};
if (!process.channel) {
  console.error('demo gateways: started without an IPC channel to the server; exiting');
  process.exit(1);
}
process.on('disconnect', leave);
// The channel alone would keep this process alive; it is only watched.
process.channel.unref();
setInterval(() => {
  if (process.ppid !== parentPid) leave();
}, 1000).unref();

// argv: <gateway main> --config <file>; the agent's main reads the rest of argv as its own.
const [gatewayMain] = process.argv.splice(2, 1);
await import(pathToFileURL(gatewayMain!).href);
