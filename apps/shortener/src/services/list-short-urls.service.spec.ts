import { describe, expect, it } from 'vitest';
import { setup } from '../../test/short-url-service-fakes.js';
import { decodeLinksCursor } from '../domain/links-cursor.rules.js';

/** Entries made by `owner` through the create service, oldest first. */
async function made(
  ctx: ReturnType<typeof setup>,
  owner: number | null,
  n: number,
  credit = 'Unknown',
): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < n; i++)
    codes.push(
      (
        await ctx.create.create({
          url: `https://example.com/${owner}/${i}/${Math.random()}`,
          credit,
          editable: true,
          ownerKeyId: owner,
        })
      ).record.code,
    );
  return codes;
}

describe('ListShortUrlsService', () => {
  it("lists only the owner's entries, newest first, pos breaking ties of the same millisecond", async () => {
    const ctx = setup();
    // The fake clock stands still: every entry has the same createdAt.
    const mine = await made(ctx, 7, 3);
    await made(ctx, 8, 2);
    await made(ctx, null, 1);
    const page = await ctx.list.list({ ownerKeyId: 7, limit: 10 });
    expect(page.links.map((l) => l.code)).toEqual([...mine].reverse());
    expect(page.next).toBeNull();
    expect(page.links[0]).toMatchObject({ fullURL: `https://pawl.ink/${mine[2]}`, visits: 0 });
  });

  it('orders by createdAt before pos, and gives a cursor only when another page follows', async () => {
    const ctx = setup();
    const codes = await made(ctx, 1, 4);
    ctx.totals.set(codes[0]!, 9);
    // The oldest entry by pos is the newest by time.
    ctx.repository.rows.find((r) => r.code === codes[0])!.createdAt = new Date('2027-01-01T00:00:00.000Z');
    const first = await ctx.list.list({ ownerKeyId: 1, limit: 2 });
    expect(first.links.map((l) => [l.code, l.visits])).toEqual([
      [codes[0], 9],
      [codes[3], 0],
    ]);
    expect(decodeLinksCursor(first.next!)).toEqual({
      createdAt: ctx.repository.rows.find((r) => r.code === codes[3])!.createdAt,
      pos: 4,
    });
    const second = await ctx.list.list({ ownerKeyId: 1, limit: 2, after: decodeLinksCursor(first.next!) });
    expect(second.links.map((l) => l.code)).toEqual([codes[2], codes[1]]);
    // Exactly a page left: no empty page after it.
    expect(second.next).toBeNull();
  });

  it('passes q on as a substring filter and pages within it', async () => {
    const ctx = setup();
    const wanted = await made(ctx, 3, 3, 'Wanted');
    await made(ctx, 3, 3, 'other');
    const first = await ctx.list.list({ ownerKeyId: 3, limit: 2, q: 'want' });
    expect(first.links.map((l) => l.code)).toEqual([wanted[2], wanted[1]]);
    const rest = await ctx.list.list({ ownerKeyId: 3, limit: 2, q: 'want', after: decodeLinksCursor(first.next!) });
    expect(rest).toEqual({ links: [expect.objectContaining({ code: wanted[0] })], next: null });
  });
});
