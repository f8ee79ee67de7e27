// Responses shaped by an injected fault: an nginx error page, a connection dropped or stalled mid-body.
import { type ServerResponse, STATUS_CODES } from 'node:http';

export const nginxPage = (status: number) => {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
};

/** Lets the headers and `limit` body bytes out, then drops the connection. */
export function cutAfter(res: ServerResponse, limit: number): void {
  let sent = 0;
  let cut = false;
  const write = res.write.bind(res) as (chunk: Buffer, cb?: () => void) => boolean;
  const drop = () => res.socket?.destroy();
  const push = (chunk: unknown, encoding?: unknown): boolean => {
    if (cut) return false;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    if (sent + buf.length < limit) {
      sent += buf.length;
      return write(buf);
    }
    cut = true;
    const part = buf.subarray(0, limit - sent);
    sent = limit;
    if (part.length > 0) write(part, drop);
    else {
      res.flushHeaders();
      res.socket?.end();
      setTimeout(drop, 50).unref();
    }
    return false;
  };
  const end = res.end.bind(res) as (cb?: () => void) => void;
  res.write = ((chunk: unknown, encoding?: unknown) => push(chunk, encoding)) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    if (chunk !== undefined && typeof chunk !== 'function') push(chunk, encoding);
    if (!cut && sent === limit) push(Buffer.alloc(0));
    if (!cut) {
      // The whole body was shorter than the limit: it goes out complete, then the connection drops.
      cut = true;
      end(drop);
    }
    return res;
  }) as typeof res.end;
}

/**
 * Lets the headers and `limit` body bytes out, then sends nothing more and never ends the response: the
 * connection stays open until the client gives up, or reset()/close() destroys it. Writes after the
 * limit are swallowed and report backpressure that never drains, so a streaming handler just waits.
 */
export function stallAfter(res: ServerResponse, limit: number, stalled: Set<{ destroy(): void }>): void {
  let sent = 0;
  let holding = false;
  const socket = res.socket;
  if (socket) {
    stalled.add(socket);
    socket.once('close', () => stalled.delete(socket));
  }
  const write = res.write.bind(res) as (chunk: Buffer) => boolean;
  const hold = () => {
    if (holding) return;
    holding = true;
    res.flushHeaders();
  };
  const push = (chunk: unknown, encoding?: unknown): boolean => {
    if (holding) return false;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    const part = buf.subarray(0, limit - sent);
    sent += part.length;
    if (part.length > 0) write(part);
    if (sent >= limit) {
      hold();
      return false;
    }
    return true;
  };
  res.write = ((chunk: unknown, encoding?: unknown) => push(chunk, encoding)) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    if (chunk !== undefined && typeof chunk !== 'function') push(chunk, encoding);
    hold(); // a body shorter than the limit goes out whole, but the response is never ended either
    return res;
  }) as typeof res.end;
}
