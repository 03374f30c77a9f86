import type { Role } from "../accounts/users";

/**
 * Who may do what to one kind of object (post, media key, conversation; next: live room, story). Every policy has
 * the same two halves, so a reader finds "who may" in one place per object:
 *
 * - a SQL fragment that computes the viewer's facts about each object (and filters what must not exist for
 *   them) inside the statement that reads the objects anyway: a feed page costs no query per item;
 * - a pure rule from those facts to the answer (`lockOf` for posts), testable without a database.
 *
 * A policy answers for a set of ids at once (`allowed`), so a list endpoint checks a whole page in one statement;
 * a `require<Object>Access` is the single-object form for commands (`requirePostAccess`): what does not exist for
 * the viewer is "not found", so a refusal tells nothing about what exists. Answers that show an object carry what
 * the viewer may do with it (`viewer: { canEdit, … }`), computed by a pure rule beside the others, so screens
 * never re-derive roles.
 *
 * Adding an object type (live room, story): a file here named after it, exporting its fragment
 * (viewer as ?1, the aliases it expects documented), its pure rule, a `Policy<Action, Id>` and its
 * `require<Object>Access`; its list queries embed the fragment, its commands call the require form, its presenter
 * adds the `viewer` permissions, and a worker test walks every kind of viewer through it.
 */
export interface Viewer {
  id: number;
  role: Role;
}

export interface Policy<Action extends string, Id> {
  /** The subset of `ids` that `viewer` (null: a visitor) may `action`; one statement for the whole set. */
  allowed(db: D1Database, viewer: Viewer | null, action: Action, ids: readonly Id[]): Promise<Set<Id>>;
}
