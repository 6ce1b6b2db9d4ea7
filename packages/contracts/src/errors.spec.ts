import { describe, expect, it } from 'vitest';
import { Errors, errorByCode, type ErrorDefinition } from './errors.js';

describe('error registry', () => {
  it('has unique numbers', () => {
    const codes = Object.values(Errors).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('covers every number docs/api.md names', () => {
    const named = [
      0, 1000, 1001, 1003, 1004, 1010, 1011, 1012, 1013, 1014, 1015, 1016, 1017, 1022, 1023, 1024, 1025, 1026, 1027,
      1030, 1040, 1041, 1051, 1052, 1054, 1055, 1056, 1057, 1058, 1060, 1062, 1063, 1064, 1065, 1066, 1067, 1068, 1069,
      1070, 1071, 1072, 1073, 1074, 1075, 1076, 1077, 1078, 1079, 1080, 1081, 1082, 1083, 1084, 1085, 1086, 1087, 1088,
      1089, 1090, 1091,
    ];
    for (const code of named) expect(errorByCode(code)?.code).toBe(code);
    expect(Object.keys(Errors)).toHaveLength(named.length);
  });

  it('maps numbers to the statuses of docs/api.md', () => {
    expect(errorByCode(1012)?.status).toBe(403);
    expect(errorByCode(1023)?.status).toBe(403);
    expect(errorByCode(1065)?.status).toBe(408);
    expect(errorByCode(1070)?.status).toBe(422);
    expect(errorByCode(1072)?.status).toBe(409);
    expect(errorByCode(1076)?.status).toBe(401);
    expect(errorByCode(1077)?.status).toBe(403);
    expect(errorByCode(1080)?.status).toBe(400);
    expect(errorByCode(1081)?.status).toBe(422);
    expect(errorByCode(1082)?.status).toBe(422);
    expect(errorByCode(1083)?.status).toBe(410);
    expect(errorByCode(1084)?.status).toBe(400);
    expect(errorByCode(1085)?.status).toBe(422);
    expect(errorByCode(1086)?.status).toBe(422);
    expect(errorByCode(1067)?.status).toBe(503);
    expect(errorByCode(1068)?.status).toBe(404);
    expect(errorByCode(1069)?.status).toBe(429);
    expect(errorByCode(1058)?.status).toBe(403);
    expect(errorByCode(1014)?.status).toBe(415);
    expect(errorByCode(1015)).toMatchObject({ status: 431, otherStatuses: [414] });
    expect(errorByCode(1016)?.status).toBe(408);
    expect(errorByCode(1017)?.status).toBe(400);
    expect(errorByCode(9999)).toBeUndefined();
  });

  it('gives every 503 a Retry-After (docs/api.md §1)', () => {
    const unavailable = (Object.values(Errors) as ErrorDefinition[]).filter((e) => e.status === 503);
    expect(unavailable.map((e) => e.code)).toEqual(expect.arrayContaining([1003, 1004, 1067]));
    for (const definition of unavailable)
      expect(definition.retryAfterSeconds, String(definition.code)).toBeGreaterThanOrEqual(1);
  });
});

describe('retired codes', () => {
  it('keep their number and are marked, so it is never reused', () => {
    expect(errorByCode(1079)).toMatchObject({ name: 'URL_IN_USE', retired: true });
    const retired = (Object.values(Errors) as ErrorDefinition[]).filter((e) => e.retired).map((e) => e.code);
    expect(retired).toEqual([1079]);
  });
});
