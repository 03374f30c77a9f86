import { describe, expect, it } from "vitest";
import type { MessageView } from "@shared/contracts/messages";
import {
  lastSeqOf,
  mergeMessages,
  seenMessageId,
  stillOutgoing,
  type OutgoingMessage,
} from "../../app/components/messages/thread-state";
import { splitLinks } from "../../app/components/messages/text-links";
import { sampleMessage } from "../support/sample-message";

const ME = 7;
const THEM = 9;

const message = (id: number, seq: number, senderId: number, overrides: Partial<MessageView> = {}): MessageView => ({
  ...sampleMessage,
  id,
  conversationId: 1,
  seq,
  clientId: `client-${id}`,
  senderId,
  text: `message ${id}`,
  media: [],
  ...overrides,
});

const outgoing = (clientId: string): OutgoingMessage => ({ clientId, text: "hi", thumbnails: [] });

describe("splitLinks", () => {
  it("keeps plain text as one part", () => {
    expect(splitLinks("hello there")).toEqual([{ text: "hello there" }]);
  });

  it("makes http and https addresses links, leaving the sentence's full stop outside", () => {
    expect(splitLinks("see https://example.com/a?b=1. and http://x.test")).toEqual([
      { text: "see " },
      { text: "https://example.com/a?b=1", href: "https://example.com/a?b=1" },
      { text: ". and " },
      { text: "http://x.test", href: "http://x.test/" },
    ]);
  });

  it("never links other schemes", () => {
    expect(splitLinks("javascript:alert(1) data:text/html,<b>x</b> ftp://files.test")).toEqual([
      { text: "javascript:alert(1) data:text/html,<b>x</b> ftp://files.test" },
    ]);
  });

  it("does not carry markup into a link", () => {
    expect(splitLinks('<a href="https://evil.test">x</a>')).toEqual([
      { text: '<a href="' },
      { text: "https://evil.test", href: "https://evil.test/" },
      { text: '">x</a>' },
    ]);
  });

  it("finds a link inside a word's brackets", () => {
    expect(splitLinks("(https://a.test/b)")).toEqual([
      { text: "(" },
      { text: "https://a.test/b", href: "https://a.test/b" },
      { text: ")" },
    ]);
  });
});

describe("mergeMessages", () => {
  it("orders by seq and keeps each message once, the later view winning", () => {
    const locked = message(2, 2, THEM, { locked: true });
    const merged = mergeMessages(
      [message(3, 3, ME), locked],
      [message(1, 1, THEM), message(2, 2, THEM, { locked: false }), message(3, 3, ME)],
    );
    expect(merged.map((m) => [m.id, m.locked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
  });

  it("answers the same array when nothing came", () => {
    const current = [message(1, 1, ME)];
    expect(mergeMessages(current, [])).toBe(current);
  });
});

describe("stillOutgoing", () => {
  it("drops an outgoing message once the viewer's stored message with its client id is there", () => {
    const stored = [message(1, 1, ME, { clientId: "aaaa-1111" }), message(2, 2, THEM, { clientId: "bbbb-2222" })];
    expect(
      stillOutgoing([outgoing("aaaa-1111"), outgoing("bbbb-2222"), outgoing("cccc-3333")], stored, ME).map(
        (o) => o.clientId,
      ),
    ).toEqual(["bbbb-2222", "cccc-3333"]);
  });
});

describe("seenMessageId", () => {
  const thread = [message(1, 1, ME), message(2, 2, THEM), message(3, 3, ME), message(4, 4, THEM)];

  it("is the viewer's newest message once the other has read up to it", () => {
    expect(seenMessageId(thread, ME, 3)).toBe(3);
    expect(seenMessageId(thread, ME, 4)).toBe(3);
  });

  it("is nothing while the viewer's newest message is unread", () => {
    expect(seenMessageId(thread, ME, 2)).toBeNull();
    expect(seenMessageId([message(2, 2, THEM)], ME, 5)).toBeNull();
  });
});

describe("lastSeqOf", () => {
  it("is the newest seq, 0 for an empty thread", () => {
    expect(lastSeqOf([message(1, 4, ME), message(2, 9, THEM)])).toBe(9);
    expect(lastSeqOf([])).toBe(0);
  });
});
