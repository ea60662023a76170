// Bundled by scripts/seed.mjs for Node: the same seed and password code the Worker uses.
export { seedStatements } from "~/db/seed";
export { hashPassword } from "~/services/password.server";
export { LOCAL_OPERATOR_EMAIL, LOCAL_OPERATOR_PASSWORD, LOCAL_PEPPER, MAX_PBKDF2_ITERATIONS } from "~/env.server";
