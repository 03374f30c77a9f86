import { describe, expect, it } from "vitest";
import { ageOn, dateOfBirthSchema, signUpSchema, usernameSchema } from "../../worker/domain/accounts/rules";
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
  it.each(["2000-02-30", "2000-13-01", "1899-12-31", "20-01-01", "2000/01/01", "", "3000-01-01"])("refuses %j as a date", (text) => {
    const result = dateOfBirthSchema.safeParse(text);
    expect(result.success).toBe(false);
    expect(validationError(result.error!).message).toBe("Invalid value");
  });

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
  ])("normalises %j to %j", (input, output) => {
    expect(usernameSchema.parse(input)).toBe(output);
  });

  it.each(["ab", "x".repeat(31), "a..b", ".ab", "ab.", "a b", "a-b", "ab@c", "HOME", "settings", "sw.js"])("refuses %j", (input) => {
    expect(usernameSchema.safeParse(input).success).toBe(false);
  });
});

describe("signUpSchema", () => {
  const valid = { username: "valid_name", name: "A Name", email: "A@B.example", password: "long enough secret", dateOfBirth: "1990-01-01", accountType: "couple" };
  it("lowercases the email and keeps the rest", () => {
    expect(signUpSchema.parse(valid)).toEqual({ ...valid, email: "a@b.example" });
  });
  it("reports every broken field at once", () => {
    const result = signUpSchema.safeParse({ ...valid, email: "nope", name: "", accountType: "robot" });
    expect(Object.keys(validationError(result.error!).fieldErrors).sort()).toEqual(["accountType", "email", "name"]);
  });
});
