import { describe, expect, it } from "vitest";
import { parseFrame } from "@shared/chat-events";
import { ChatServerFrameSchema, SentMessageSchema } from "@shared/contracts/messages";
import { chatServerFrameShape, sentShape } from "../../app/components/messages/chat-shapes";
import { sampleMessage as message } from "../support/sample-message";

describe("the chat's generated checks", () => {
  it("accept a sent message as its schema does, and refuse it without any one of its fields", () => {
    const answer = { message, replayed: false };
    expect(sentShape(answer)).toEqual(SentMessageSchema.parse(answer));
    for (const key of Object.keys(message)) {
      const broken: Record<string, unknown> = { ...message };
      delete broken[key];
      expect(SentMessageSchema.safeParse({ message: broken, replayed: false }).success, key).toBe(false);
      expect(() => sentShape({ message: broken, replayed: false }), key).toThrow();
    }
  });

  it("give a file stored before photos had copies none, as its schema does", () => {
    const file: Record<string, unknown> = { ...message.media[0] };
    delete file.scaled;
    const answer = { message: { ...message, media: [file] }, replayed: true };
    expect(sentShape(answer).message.media[0]!.scaled).toEqual([]);
    expect(SentMessageSchema.parse(answer).message.media[0]!.scaled).toEqual([]);
  });

  it("read the ChatRoom's frames as its schema does: each kind kept, anything else dropped", () => {
    const frames = [
      { type: "message", message },
      { type: "typing", userId: 3 },
      { type: "read", userId: 3, seq: 2 },
      { type: "unlocked", messageId: 11, message: { ...message, locked: false, purchased: true } },
      { type: "typing" },
      { type: "read", userId: 3, seq: "2" },
      { type: "message", message: { ...message, media: [{ kind: "image" }] } },
      { type: "joined", userId: 3 },
    ];
    for (const frame of frames) {
      const zod = ChatServerFrameSchema.safeParse(frame);
      expect(parseFrame(chatServerFrameShape, JSON.stringify(frame)), JSON.stringify(frame)).toEqual(
        zod.success ? zod.data : null,
      );
    }
    expect(frames.filter((frame) => ChatServerFrameSchema.safeParse(frame).success)).toHaveLength(4);
    expect(parseFrame(chatServerFrameShape, "not json")).toBeNull();
  });
});
