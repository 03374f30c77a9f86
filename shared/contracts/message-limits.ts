/** What a chat message may hold, which the composer shows too: apart from the schemas, which the page must not load. */

export const MAX_MESSAGE_LENGTH = 2000;
export const MAX_MESSAGE_MEDIA = 10;
