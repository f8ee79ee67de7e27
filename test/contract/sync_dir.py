#!/usr/bin/env python3
"""The request sequence of the Python client's `sync_dir` (package datagrok-api), written with the standard
library because that package cannot be installed here (offline). Not its code: the same requests, as
shared/notes/real-clients.md describes them.

  sync_dir.py BASE_URL KEY CONNECTOR DIR LOCAL_FOLDER STATE_FILE

POST {BASE_URL}/public/v1/files/sync/{CONNECTOR}/{DIR}?recursive=true with the local {relative path: eTag}
map (entries whose file is missing locally dropped first, so they come again); 204: nothing to do; else a
multipart answer, one part per file: X-File-Status deleted (the local file goes), not-modified (kept), or
the new content with its X-File-E-Tag. The state is saved to STATE_FILE. Prints one JSON line of counts.
"""
import json
import os
import re
import sys
import urllib.parse
import urllib.request


def parse_multipart(body: bytes, boundary: bytes):
    """Splits a multipart body into (headers, content) parts, as requests_toolbelt's decoder does."""
    parts = []
    for chunk in body.split(b'--' + boundary)[1:]:
        if chunk.startswith(b'--'):
            break
        chunk = chunk[2:] if chunk.startswith(b'\r\n') else chunk
        head, _, content = chunk.partition(b'\r\n\r\n')
        if content.endswith(b'\r\n'):
            content = content[:-2]
        headers = {}
        for line in head.decode('utf-8').split('\r\n'):
            name, _, value = line.partition(':')
            headers[name.strip().lower()] = value.strip()
        parts.append((headers, content))
    return parts


def main():
    base_url, key, connector, folder, local, state_file = sys.argv[1:7]
    state = {}
    if os.path.exists(state_file):
        with open(state_file) as f:
            state = json.load(f)
    state = {p: e for p, e in state.items() if os.path.exists(os.path.join(local, p))}
    url = '%s/public/v1/files/sync/%s/%s?recursive=true' % (base_url.rstrip('/'), connector.replace(':', '.'), urllib.parse.quote(folder))
    request = urllib.request.Request(url, data=json.dumps(state).encode(), method='POST',
                                     headers={'Authorization': key, 'Content-Type': 'application/json'})
    counts = {'new': 0, 'notModified': 0, 'deleted': 0, 'bytes': 0}
    with urllib.request.urlopen(request) as response:
        if response.status != 204:
            content_type = response.headers['Content-Type']
            boundary = re.search(r'boundary="?([^";]+)"?', content_type).group(1).encode()
            for headers, content in parse_multipart(response.read(), boundary):
                name = re.search(r'filename="?([^";]+)"?', headers['content-disposition']).group(1)
                target = os.path.join(local, *name.split('/'))
                status = headers.get('x-file-status')
                if status == 'deleted':
                    if os.path.exists(target):
                        os.remove(target)
                    state.pop(name, None)
                    counts['deleted'] += 1
                elif status == 'not-modified':
                    counts['notModified'] += 1
                else:
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with open(target, 'wb') as f:
                        f.write(content)
                    state[name] = headers.get('x-file-e-tag')
                    counts['new'] += 1
                    counts['bytes'] += len(content)
    with open(state_file, 'w') as f:
        json.dump(state, f)
    print(json.dumps(counts))


if __name__ == '__main__':
    main()
