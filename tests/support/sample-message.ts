import type { MessageView } from "@shared/contracts/messages";

/** A chat message as the presenter writes it, with one open photo and its copy. */
export const sampleMessage: MessageView = {
  id: 11,
  conversationId: 4,
  seq: 2,
  clientId: "c-1",
  senderId: 3,
  text: "hello",
  createdAt: "2026-01-01T00:00:00.000Z",
  priceCents: 0,
  paidCents: 0,
  tipCents: 0,
  locked: false,
  purchased: false,
  media: [
    {
      id: 5,
      kind: "image",
      url: "/media/5",
      posterUrl: null,
      previewUrl: null,
      width: 800,
      height: 600,
      scaled: [{ width: 640, url: "/media/5?w=640" }],
      renditions: [],
      hlsUrl: null,
    },
  ],
};
