import type { Role } from "../accounts/users";

/**
 * Who may do what to one kind of object: one file here per object (members, posts, conversations, live streams,
 * stories, media keys), and every path that touches the object asks it. Each has the same parts, so a reader
 * finds "who may" in one place:
 *
 * - SQL fragments that compute the viewer's facts about each object (or filter out what must not exist for them)
 *   inside the statement that reads the objects anyway, so a feed page costs no query per item. The facts
 *   between two members (blocked either way, follows, subscribes) are members.ts's, and every other policy
 *   builds on them;
 * - a pure rule from those facts to the answer (`lockOf` for posts, `writeRefusalOf` for conversations),
 *   testable without a database;
 * - a `require<Object>Access(db, viewer, id, action)` for commands: what does not exist for the viewer is
 *   "not found", so a refusal tells nothing about what exists;
 * - a pure `<object>PermissionsOf` for the answers that show an object (`viewer: { canEdit, … }`), so screens
 *   never re-derive roles.
 *
 * Adding an object type: a file here named after it with those parts; its list queries embed the fragment, its
 * commands call the require form, its presenter adds the permissions, and a worker test walks every kind of
 * viewer through it.
 */
export interface Viewer {
  id: number;
  role: Role;
}
