// A server for the answer-size bench (answers.ts), run as a child process so the client's memory is its
// own: a 500 whose body is 50 MB, a 200 whose body is an ApiError with a 50 MB message (as real servers
// answer some failures; asked as the listing of groups with text=apiError), and a JSON listing larger
// than the client holds (64 MiB + 1 MiB, chunked, no Content-Length, so only counting can refuse it).
// Prints its base URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const MiB = 1024 * 1024;

const server = createServer((req, res) => {
  const path = req.url ?? '';
  if (path.startsWith('/api/public/v1/groups/')) {
    // An application server's error page with a stack dump: 50 MB.
    const block = Buffer.alloc(MiB, 'Internal error: at com.example.Handler.handle(Handler.java:42)\n');
    res.writeHead(500, { 'content-type': 'text/plain', 'content-length': String(50 * MiB) });
    let left = 50;
    const more = () => {
      while (left > 0) {
        left--;
        if (!res.write(block)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => undefined);
    more();
    return;
  }
  if (path.startsWith('/api/public/v1/groups?text=apiError')) {
    // An ApiError on 200 whose message is a 50 MB stack dump, with its length declared.
    const head = Buffer.from('{"#type":"ApiError","message":"Internal error: ');
    const line = 'at com.example.Handler.handle(Handler.java:42)\\n';
    const block = Buffer.from(line.repeat(Math.ceil(MiB / line.length)).slice(0, MiB));
    const tail = Buffer.from('","errorCode":500}');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(head.length + 50 * MiB + tail.length) });
    res.write(head);
    let left = 50;
    const more = () => {
      while (left > 0) {
        left--;
        if (!res.write(block)) return void res.once('drain', more);
      }
      res.end(tail);
    };
    res.on('error', () => undefined);
    more();
    return;
  }
  if (path.startsWith('/api/public/v1/groups')) {
    // A JSON array of groups, 65 MiB, chunked.
    const item = Buffer.from(`${JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', name: 'group', friendlyName: 'A group with a long description '.repeat(8) })},`);
    const items = Math.ceil((65 * MiB) / item.length);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    let i = 0;
    const batch = Buffer.concat(Array.from({ length: 256 }, () => item));
    const more = () => {
      while (i < items) {
        i += 256;
        if (!res.write(batch)) return void res.once('drain', more);
      }
      res.end('{}]');
    };
    res.on('error', () => undefined);
    more();
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  console.log(`answer server: http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
});
