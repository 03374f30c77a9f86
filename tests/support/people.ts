/** Builds unique, valid sign-up data; shared by the worker and end-to-end tiers so tests never collide. */
let counter = 0;
export const unique = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface SignUpBody {
  username: string;
  name: string;
  email: string;
  password: string;
  dateOfBirth: string;
  accountType: string;
}

export function buildSignUp(overrides: Partial<SignUpBody> = {}): SignUpBody {
  const id = unique();
  return {
    username: `user_${id}`,
    name: "Test Person",
    email: `person_${id}@example.test`,
    password: `a long passphrase ${id}`,
    dateOfBirth: "1990-05-17",
    accountType: "female",
    ...overrides,
  };
}
