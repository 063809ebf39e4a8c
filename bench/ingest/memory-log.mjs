// Preloaded into the server by `bench/ingest/run.ts --memory-log <file>` (node --import): Node
// runs it in every thread, the PGlite worker included. Every 2 s each thread appends one JSON
// line with its process.memoryUsage() and V8 heap spaces (MB); every 10 s the main thread adds
// the process's resident memory from /proc/self/smaps, summed by mapping (Linux only).
import { appendFileSync, readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

const file = process.env.LW_MEMORY_LOG;
const mb = (bytes) => Math.round(bytes / 1048576);

/** Resident MB by mapping name; anonymous mappings apart by permissions and size. */
const smaps = () => {
  const byName = {};
  const anonymous = [];
  let current = null;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const size = (parseInt(header[2], 16) - parseInt(header[1], 16)) / 1048576;
      const name = header[4] || `[anon ${header[3]}]`;
      current = { name, size, rss: 0, anonymous: !header[4] };
      if (current.anonymous) anonymous.push(current);
    } else if (current && line.startsWith('Rss:')) {
      current.rss = Number.parseInt(line.slice(4), 10) / 1024;
      byName[current.name] = (byName[current.name] ?? 0) + current.rss;
    }
  }
  return {
    byName: Object.fromEntries(
      Object.entries(byName)
        .filter(([, rss]) => rss >= 2)
        .sort((a, b) => b[1] - a[1])
        .map(([name, rss]) => [name, Math.round(rss)]),
    ),
    // V8 heap pages are many small mappings; malloc arenas and WASM memory are large ones.
    largeAnonymous: anonymous
      .filter((m) => m.rss >= 4)
      .sort((a, b) => b.rss - a.rss)
      .map((m) => `${Math.round(m.rss)} of ${Math.round(m.size)} ${m.name}`),
    smallAnonymous: Math.round(
      anonymous.filter((m) => m.rss < 4).reduce((sum, m) => sum + m.rss, 0),
    ),
  };
};

if (file) {
  let ticks = 0;
  setInterval(() => {
    const usage = process.memoryUsage();
    const entry = {
      at: new Date().toISOString().slice(11, 19),
      thread: threadId,
      rss: mb(usage.rss),
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      spaces: Object.fromEntries(
        v8.getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_size)]),
      ),
      ...(isMainThread && ticks++ % 5 === 0 && { smaps: smaps() }),
    };
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  }, 2000).unref();
}
