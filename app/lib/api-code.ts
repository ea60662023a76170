/** The spec §8 envelope's codes: 1 success, 999 invalid session, anything else shows msg. */
export const ApiCode = { Ok: 1, Error: 0, InvalidSession: 999 } as const;
