import { pathToFileURL } from 'node:url';

/**
 * A demo process tied to the server that started it: the gateway agent (apps/gateway) or the
 * simulated PLCs it polls (apps/gateway plc-sim). A real edge box outlives the server; a demo one
 * must not: after a kill -9 of the server an orphaned agent would keep its buffer directories
 * locked, an orphaned plc-sim its ports, and the restarted server's would retry forever. It stops (cleanly, as on SIGTERM) when the IPC channel to its parent closes —
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
  console.error('demo child: started without an IPC channel to the server; exiting');
  process.exit(1);
}
process.on('disconnect', leave);
// The channel alone would keep this process alive; it is only watched.
process.channel.unref();
setInterval(() => {
  if (process.ppid !== parentPid) leave();
}, 1000).unref();

// argv: <main> <its arguments>; the main reads the rest of argv as its own.
const [main] = process.argv.splice(2, 1);
await import(pathToFileURL(main!).href);
