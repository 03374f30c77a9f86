import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import {
  ageOn,
  dateOfBirthSchema,
  emailSchema,
  NewPasswordFormSchema,
  newPasswordSchema,
  ResetPasswordBodySchema,
  SignInBodySchema,
  SignUpBodySchema,
  usernameSchema,
} from "../../shared/contracts/accounts";
import { validationError } from "../../worker/domain/shared/validation";

describe("ageOn", () => {
  const d = (text: string) => new Date(`${text}T00:00:00Z`);
  it.each([
    ["2000-06-15", "2018-06-14", 17],
    ["2000-06-15", "2018-06-15", 18],
    ["2000-06-15", "2018-12-31", 18],
    ["2000-02-29", "2018-02-28", 17],
    ["2000-02-29", "2018-03-01", 18],
    ["2000-12-31", "2019-01-01", 18],
  ])("born %s, on %s is %i", (birth, today, age) => {
    expect(ageOn(d(birth), d(today))).toBe(age);
  });
});

describe("dateOfBirthSchema", () => {
  it.each(["2000-02-30", "2000-13-01", "1899-12-31", "20-01-01", "2000/01/01", "", "3000-01-01"])(
    "refuses %s as a date",
    (text) => {
      const result = dateOfBirthSchema.safeParse(text);
      expect(result.success).toBe(false);
      expect(validationError(result.error!).message).toBe(
        "Enter your date of birth as a real date from 1900 to today, such as 1990-05-17.",
      );
    },
  );

  it("names the age rule for a real date under 18", () => {
    const result = dateOfBirthSchema.safeParse(`${new Date().getUTCFullYear() - 10}-01-01`);
    expect(validationError(result.error!).message).toBe("Your age must be over 18+");
  });
});

describe("usernameSchema", () => {
  it.each([
    ["Mia.Rivers", "mia.rivers"],
    ["  abc  ", "abc"],
    ["a_b.c_9", "a_b.c_9"],
    ["x".repeat(30), "x".repeat(30)],
  ])("normalises %s to %s", (input, output) => {
    expect(usernameSchema.parse(input)).toBe(output);
  });

  it.each(["ab", "x".repeat(31), "a..b", ".ab", "ab.", "a b", "a-b", "ab@c", "HOME", "settings", "sw.js"])(
    "refuses %s",
    (input) => {
      expect(usernameSchema.safeParse(input).success).toBe(false);
    },
  );
});

describe("SignUpBodySchema", () => {
  const valid = {
    username: "valid_name",
    name: "A Name",
    email: "A@B.example",
    password: "long enough secret",
    dateOfBirth: "1990-01-01",
    accountType: "couple",
  };
  it("lowercases the email and keeps the rest", () => {
    expect(SignUpBodySchema.parse(valid)).toEqual({ ...valid, email: "a@b.example" });
  });
  it("reports every broken field at once", () => {
    const result = SignUpBodySchema.safeParse({ ...valid, email: "nope", name: "", accountType: "robot" });
    expect(Object.keys(validationError(result.error!).fieldErrors).sort()).toEqual(["accountType", "email", "name"]);
  });
});

describe("reserved usernames", () => {
  const usernameShaped = (name: string) =>
    /^[a-z0-9_](?:[a-z0-9_]|\.(?!\.))*[a-z0-9_]$/.test(name) && name.length >= 3 && name.length <= 30;
  /** The first path segment of every route (flat routes: "_shell.home.tsx" is /home, "login._index.tsx" /login). */
  const routeSegments = readdirSync(new URL("../../app/routes", import.meta.url))
    .map(
      (file) =>
        file
          .replace(/\.tsx$/, "")
          .split(".")
          .find((part) => !part.startsWith("_")) ?? "",
    )
    .filter((segment) => segment !== "" && !segment.startsWith("$") && !segment.startsWith("("))
    .map((segment) => segment.replace(/_$/, "").toLowerCase());
  /** Files and folders served from the site root, and the Worker's own prefixes. */
  const rootPaths = [
    ...readdirSync(new URL("../../public", import.meta.url)),
    "api",
    "media",
    "ws",
    "assets",
    "sw.js",
  ].map((name) => name.toLowerCase());

  it("covers every page and every file at the root, so a profile URL never shadows one", () => {
    const taken = [...new Set([...routeSegments, ...rootPaths])].filter(usernameShaped);
    expect(taken.length).toBeGreaterThan(20);
    for (const name of taken) expect(usernameSchema.safeParse(name).success, name).toBe(false);
  });

  it("keeps the names people would take for the site's own, pages or not", () => {
    const official = [
      "about",
      "admin",
      "administrator",
      "app",
      "build",
      "email",
      "explore",
      "feed",
      "forgot-password",
      "help",
      "me",
      "offline",
      "payments",
      "posts",
      "preview",
      "privacy",
      "profile",
      "reset-password",
      "root",
      "static",
      "subscriptions",
      "support",
      "system",
      "terms",
      "user",
      "users",
      "www",
    ];
    for (const name of official) expect(usernameSchema.safeParse(name).success, name).toBe(false);
  });

  it("refuses them whatever the case, with their own sentence", () => {
    for (const name of ["Admin", "WALLET", "robots.txt", "Favicon.ico"]) {
      expect(validationError(usernameSchema.safeParse(name).error!).message, name).toBe(
        "This username is not available.",
      );
    }
  });
});

describe("usernames: the sentence of the format rule", () => {
  it.each(["ab", "x".repeat(31), "x".repeat(65), "a..b", "_a_b_-"])("names it for %s", (input) => {
    expect(validationError(usernameSchema.safeParse(input).error!).message).toBe(
      "Usernames have 3 to 30 characters: letters a-z, digits, dots and underscores.",
    );
  });
});

describe("emailSchema", () => {
  it("trims and lowercases", () => {
    expect(emailSchema.parse("  Mia.Rivers@Example.TEST ")).toBe("mia.rivers@example.test");
  });
  it("refuses what is not an address, and addresses over 254 characters", () => {
    expect(emailSchema.safeParse("not an address").success).toBe(false);
    const local = "a".repeat(64);
    const longest = `${local}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(56)}.test`;
    expect(longest.length).toBe(254);
    expect(emailSchema.safeParse(longest).success).toBe(true);
    expect(emailSchema.safeParse(`a${longest}`).success).toBe(false);
  });
});

describe("newPasswordSchema: 8 to 128 characters, not a common password", () => {
  const messageOf = (password: unknown) => {
    const result = newPasswordSchema.safeParse(password);
    return result.success ? null : validationError(result.error).message;
  };
  it("accepts the two ends of the length rule", () => {
    expect(messageOf("kq8#vz!p")).toBeNull();
    expect(messageOf("k".repeat(127) + "q")).toBeNull();
  });
  it("names each broken rule", () => {
    expect(messageOf("kq8#vz!")).toBe("The password must be at least 8 characters.");
    expect(messageOf("k".repeat(128) + "q")).toBe("The password may not be longer than 128 characters.");
    expect(messageOf("Password1")).toBe("This password is too common. Please choose another one.");
    expect(messageOf(undefined)).toBe("This field is required.");
  });
});

describe("dateOfBirthSchema: a real calendar date, not in the future, from 1900", () => {
  it("accepts a grown-up's date and the first day of 1900", () => {
    expect(dateOfBirthSchema.safeParse("1990-06-15").success).toBe(true);
    expect(dateOfBirthSchema.safeParse("1900-01-01").success).toBe(true);
    expect(dateOfBirthSchema.safeParse("2000-02-29").success).toBe(true);
  });
  it("accepts someone who turns 18 today", () => {
    const today = new Date().toISOString().slice(0, 10);
    // On a 29 February, eighteen years ago had none: born the day before, then.
    const birth = today.endsWith("-02-29")
      ? `${Number(today.slice(0, 4)) - 18}-02-28`
      : `${Number(today.slice(0, 4)) - 18}${today.slice(4)}`;
    expect(dateOfBirthSchema.safeParse(birth).success).toBe(true);
  });
  it("refuses tomorrow as not a date of birth, and someone born 18 years ago tomorrow as under age", () => {
    const day = 24 * 3_600_000;
    const tomorrow = new Date(Date.now() + day).toISOString().slice(0, 10);
    expect(validationError(dateOfBirthSchema.safeParse(tomorrow).error!).message).toBe(
      "Enter your date of birth as a real date from 1900 to today, such as 1990-05-17.",
    );
    const inAday = new Date(Date.now() + day);
    const eighteenTomorrow = `${inAday.getUTCFullYear() - 18}-${tomorrow.slice(5)}`;
    expect(validationError(dateOfBirthSchema.safeParse(eighteenTomorrow).error!).message).toBe(
      "Your age must be over 18+",
    );
  });
  it.each(["2001-02-29", "2000-04-31", "2000-00-10", "2000-01-00", " 2000-01-01", "2000-01-01 "])(
    "refuses %s",
    (text) => {
      expect(dateOfBirthSchema.safeParse(text).success).toBe(false);
    },
  );
});

describe("ageOn: month and day both count", () => {
  const d = (text: string) => new Date(`${text}T00:00:00Z`);
  it.each([
    ["2000-06-15", "2018-05-20", 17], // an earlier month, a later day
    ["2000-06-15", "2018-07-01", 18], // a later month, an earlier day
    ["2000-06-15", "2018-06-16", 18],
  ])("born %s, on %s is %i", (birth, today, age) => {
    expect(ageOn(d(birth), d(today))).toBe(age);
  });
});

describe("SignInBodySchema", () => {
  it("trims the login and keeps the password as typed", () => {
    expect(SignInBodySchema.parse({ login: "  mia ", password: " secret " })).toEqual({
      login: "mia",
      password: " secret ",
    });
  });
  it.each([
    [{ login: "   ", password: "x" }],
    [{ login: "mia", password: "" }],
    [{ login: "a".repeat(255), password: "x" }],
    [{ login: "mia", password: "x".repeat(513) }],
  ])("refuses %s", (input) => {
    expect(SignInBodySchema.safeParse(input).success).toBe(false);
  });
  it("takes the longest login and password it allows", () => {
    expect(SignInBodySchema.safeParse({ login: "a".repeat(254), password: "x".repeat(512) }).success).toBe(true);
  });
});

describe("new password forms: the two passwords must match", () => {
  const password = "kq8#vz!p-long";
  it("accepts matching passwords", () => {
    expect(NewPasswordFormSchema.parse({ password, passwordConfirmation: password })).toEqual({
      password,
      passwordConfirmation: password,
    });
    expect(ResetPasswordBodySchema.parse({ token: "t", password, passwordConfirmation: password })).toEqual({
      token: "t",
      password,
      passwordConfirmation: password,
    });
  });
  it("names the confirmation field when they differ", () => {
    for (const result of [
      NewPasswordFormSchema.safeParse({ password, passwordConfirmation: `${password}x` }),
      ResetPasswordBodySchema.safeParse({ token: "t", password, passwordConfirmation: `${password}x` }),
    ]) {
      expect(validationError(result.error!).fieldErrors).toEqual({
        passwordConfirmation: ["The passwords do not match."],
      });
    }
  });
  it("refuses a reset without a token or with one over 64 characters", () => {
    expect(ResetPasswordBodySchema.safeParse({ token: "", password, passwordConfirmation: password }).success).toBe(
      false,
    );
    expect(
      ResetPasswordBodySchema.safeParse({ token: "t".repeat(65), password, passwordConfirmation: password }).success,
    ).toBe(false);
    expect(
      ResetPasswordBodySchema.safeParse({ token: "t".repeat(64), password, passwordConfirmation: password }).success,
    ).toBe(true);
  });
  it("refuses a confirmation over 512 characters", () => {
    expect(NewPasswordFormSchema.safeParse({ password, passwordConfirmation: "x".repeat(513) }).success).toBe(false);
  });
});

describe("SignUpBodySchema: the display name", () => {
  it("is kept without the spaces around it", () => {
    const parsed = SignUpBodySchema.parse({
      username: "mia",
      name: "  Mia Rivers  ",
      email: "mia@example.test",
      password: "a long bench passphrase",
      dateOfBirth: "1990-01-01",
      accountType: "other",
    });
    expect(parsed.name).toBe("Mia Rivers");
  });
});
