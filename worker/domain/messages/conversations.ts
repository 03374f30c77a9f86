/** Whether the user takes part in the conversation; for anyone else it does not exist. */
export async function isConversationMember(db: D1Database, conversationId: number, userId: number): Promise<boolean> {
  const row = await db.prepare("SELECT 1 AS member FROM conversation_members WHERE conversation_id = ? AND user_id = ?").bind(conversationId, userId).first();
  return row !== null;
}
