import { Inflate } from 'fflate';

/** 1 KB of deflate inflates to at most about 1 MB: pieces this small keep each inflated chunk small. */
const PIECE = 1024;

/**
 * Inflates raw deflate data in small pieces, calling `count` with each inflated chunk's length;
 * the bytes are counted, never kept. `count` throws to stop (a budget passed); that error goes
 * through, while damaged data throws the error `damaged()` returns, or ends quietly when it
 * returns undefined.
 */
export function countInflated(data: Uint8Array, count: (bytes: number) => void, damaged: () => Error | undefined): void {
  let stopped: unknown;
  const inflate = new Inflate((chunk) => {
    try {
      count(chunk.length);
    } catch (error) {
      stopped = error;
      throw error;
    }
  });
  try {
    for (let i = 0; i < data.length; i += PIECE) inflate.push(data.subarray(i, i + PIECE), i + PIECE >= data.length);
  } catch (error) {
    if (stopped !== undefined) throw stopped;
    const refusal = damaged();
    if (refusal) throw refusal;
  }
}
