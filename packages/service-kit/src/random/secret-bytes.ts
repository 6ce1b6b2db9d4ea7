import { randomFillSync } from 'node:crypto';

/** Bytes drawn from the system CSPRNG per refill: 128 secrets of 32 bytes. */
const POOL_BYTES = 4096;

const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * `length` bytes from the CSPRNG, for secrets (API keys, management codes, session tokens). Each
 * call to OpenSSL costs about the same however few bytes it returns (4–5 µs here, and a create's
 * profile showed several times that under load), so the bytes are drawn 4 KiB at a time, as
 * Node's own `randomUUID` does. Every byte is handed out once and then zeroed in the pool.
 */
export function secretBytes(length: number): Buffer {
  if (!Number.isInteger(length) || length < 1 || length > POOL_BYTES)
    throw new RangeError(`secretBytes: length must be an integer from 1 to ${POOL_BYTES}, got ${length}`);
  if (offset + length > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + length));
  pool.fill(0, offset, offset + length);
  offset += length;
  return bytes;
}
