import { describe, expect, it } from 'vitest';
import { assertQrFits, qrModulePng, qrModulesOf, qrSvg } from './qr-code.rules.js';

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer): [number, number] => [png.readUInt32BE(16), png.readUInt32BE(20)];

describe('QR code rules', () => {
  it('counts the modules of the symbol a text needs', () => {
    expect(qrModulesOf('https://pawl.ink/abc')).toBe(25);
    expect(qrModulesOf(`https://pawl.ink/${'x'.repeat(50)}`)).toBe(37);
  });

  it('draws one pixel per module, margin included', async () => {
    expect(pngSize(await qrModulePng('https://pawl.ink/abc', 0))).toEqual([25, 25]);
    expect(pngSize(await qrModulePng('https://pawl.ink/abc', 8))).toEqual([41, 41]);
  });

  it('refuses a size smaller than the modules with the margin (400 1057), naming the smallest that fits', () => {
    const text = `https://pawl.ink/${'x'.repeat(200)}`;
    const modules = qrModulesOf(text) + 16;
    expect(modules).toBeGreaterThan(64);
    expect(() => assertQrFits(text, modules - 1, 8)).toThrow(
      expect.objectContaining({
        code: 1057,
        httpStatus: 400,
        message: expect.stringContaining(`at least ${modules} pixels`),
      }),
    );
    expect(() => assertQrFits(text, modules, 8)).not.toThrow();
  });

  it('draws a scalable SVG sized by its viewBox, margin included', async () => {
    const svg = await qrSvg('https://pawl.ink/abc', 3);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 31 31"/);
    expect(svg).not.toMatch(/width=/);
  });
});
