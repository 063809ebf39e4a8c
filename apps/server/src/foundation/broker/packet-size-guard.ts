import type { Socket } from 'node:net';

/**
 * Follows MQTT control packets through a byte stream by their fixed headers alone (a type byte,
 * then the "remaining length": 1–4 bytes of 7 bits, low first) and answers false as soon as a
 * header announces more than `limit()` bytes. The parser behind it would otherwise buffer
 * whatever a client announces, up to 256 MB per packet, before anyone knows who it is.
 */
export const packetSizeGuard = (limit: () => number) => {
  let skip = 0;
  let headerBytes = 0;
  let length = 0;
  let multiplier = 1;
  return (chunk: Uint8Array): boolean => {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++]!;
      if (headerBytes++ === 0) continue; // the packet type and flags
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      if (byte & 0x80) {
        if (headerBytes > 4) return false; // a fifth length byte: not MQTT
        continue;
      }
      if (length > limit()) return false;
      skip = length;
      headerBytes = 0;
      length = 0;
      multiplier = 1;
    }
    return true;
  };
};

/** Drops the connection when a packet announces more than `limit()` bytes (see above). */
export const guardPacketSize = (socket: Socket, limit: () => number) => {
  const fits = packetSizeGuard(limit);
  const read = socket.read.bind(socket);
  // The broker pulls every byte with read() (paused mode): each chunk is checked on its way.
  socket.read = (size?: number) => {
    const chunk = read(size) as Buffer | string | null;
    if (chunk === null || typeof chunk === 'string' || fits(chunk)) return chunk;
    socket.destroy();
    return null;
  };
};
