// Types of the two packages publishing bundles that ship none: ignore-walk (npm's own walker, what `grok
// publish` lists files with) and yazl (a streaming zip writer).
declare module 'ignore-walk' {
  interface WalkOptions {
    path: string;
    ignoreFiles?: string[];
    includeEmpty?: boolean;
    follow?: boolean;
  }
  function walk(options: WalkOptions): Promise<string[]>;
  namespace walk {
    function sync(options: WalkOptions): string[];
  }
  export = walk;
}

declare module 'yazl' {
  import type { Readable } from 'node:stream';
  interface EntryOptions {
    mtime?: Date;
    mode?: number;
    compress?: boolean;
    size?: number;
  }
  export class ZipFile {
    outputStream: Readable;
    addReadStream(stream: Readable, name: string, options?: EntryOptions): void;
    addBuffer(buffer: Buffer, name: string, options?: EntryOptions): void;
    end(options?: Record<string, unknown>, callback?: (finalSize: number) => void): void;
  }
}
