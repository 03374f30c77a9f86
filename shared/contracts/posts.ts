/**
 * The posts API's shapes as the page receives them (timeline, profiles, /post/{id}, comments): written by the Worker's
 * presenters (worker/domain/posts, profiles, interactions), read by the screens. Plain types and constants only:
 * nothing here may import Worker code.
 */

import type { PlanView, SubscriptionView } from "./subscriptions";

/**
 * Who sees what (docs/decisions/locked-posts.md). Every list, page, API answer and /media request decides here, from
 * facts about one viewer and one post that the queries compute in the same statement (VIEWER_FACTS_SQL), so a
 * feed page costs no query per post.
 */
export type Audience = "everyone" | "followers" | "subscribers";

export const AUDIENCES = ["everyone", "followers", "subscribers"] as const satisfies readonly Audience[];

/** What the viewer must do to open a locked post. */
export type LockReason = "follow" | "subscribe" | "purchase";

/** What the viewer may do with a post they see; the buttons under a post are exactly these. */
export interface PostPermissions {
  canEdit: boolean;
  canDelete: boolean;
  canLike: boolean;
  canComment: boolean;
  canBookmark: boolean;
  canTip: boolean;
  canUnlock: boolean;
  canReport: boolean;
}

/**
 * The one shape a post takes in every answer (timeline, profile, /post/{id}, bookmarks, search): its text is the
 * public teaser; media URLs appear only when the viewer may open the post, otherwise only blurred previews.
 */
export interface MediaView {
  id: number;
  kind: "image" | "video";
  url: string;
  posterUrl: string | null;
  width: number | null;
  height: number | null;
  /** Smaller copies of a photo, narrowest first, under the same rule as `url` (empty when none was made). */
  scaled: ScaledImage[];
}

/** The widths of the copies of a photo: made by the uploader's browser (app/lib/uploads.ts), kept by the server. */
export const SCALED_WIDTHS = [640, 1280] as const;

/** A copy of a photo `width` pixels wide, made by the uploader's browser; the page offers it with srcset. */
export interface ScaledImage {
  width: number;
  url: string;
}

export interface LockedMediaView {
  kind: "image" | "video";
  /** A tiny blurred image made at upload time; null when none exists. */
  previewUrl: string | null;
}

export type PostStatus = "processing" | "scheduled" | "published";

export interface PostView {
  id: number;
  text: string;
  audience: Audience;
  priceCents: number;
  status: PostStatus;
  publishedAt: string | null;
  scheduledAt: string | null;
  editedAt: string | null;
  author: { id: number; username: string; name: string; avatarUrl: string };
  likeCount: number;
  commentCount: number;
  liked: boolean;
  bookmarked: boolean;
  isOwn: boolean;
  /** null when open; otherwise what unlocks it. */
  lock: LockReason | null;
  /** What this viewer may do with the post (policies/posts.ts): screens show exactly these buttons. */
  viewer: PostPermissions;
  mediaCount: number;
  media: MediaView[] | null;
  previews: LockedMediaView[];
}

export type UploadState = "uploading" | "ready" | "failed";

/** A processing post with the state of each of its files (the presenter shows ready ones only). */
export interface ProcessingPostView extends PostView {
  uploads: { id: number; kind: "image" | "video"; status: UploadState }[];
}

export const COMMENT_MAX = 1000;

/** A comment as every answer shows it. */
export interface CommentView {
  id: number;
  postId: number;
  text: string;
  createdAt: string;
  author: { id: number; username: string; name: string; avatarUrl: string };
  /** The comment's author and the post's author may delete it. */
  canDelete: boolean;
}

export type ProfileTab = "posts" | "media";

export interface ProfilePostsPage {
  posts: PostView[];
  /** Pass back as `cursor` for the next page; null at the end. */
  nextCursor: string | null;
}

/** What the viewer may do on a member's profile; the profile's buttons are exactly these. */
export interface ProfilePermissions {
  canEdit: boolean;
  canFollow: boolean;
  canTip: boolean;
  canReport: boolean;
  canBlock: boolean;
}

export interface Profile extends ProfilePostsPage {
  userId: number;
  username: string;
  name: string;
  bio: string;
  location: string;
  website: string;
  avatarUrl: string;
  coverUrl: string;
  isCreator: boolean;
  isOwn: boolean;
  /** false when the viewer and the user block each other either way: only the name and avatar are shown. */
  available: boolean;
  /** What the viewer may do here (policies/members.ts): the profile shows exactly these buttons. */
  viewer: ProfilePermissions;
  postCount: number;
  mediaCount: number;
  /** Likes received on published posts. */
  likeCount: number;
  /** Shown to the owner only. */
  followerCount: number | null;
  following: boolean;
  /** The viewer's live (active or cancelled) subscription. */
  subscription: SubscriptionView | null;
  plans: PlanView[];
  /** What a fan pays to send a message to this creator (0: free). */
  messagePriceCents: number;
}

export interface SuggestedProfile {
  username: string;
  avatarUrl: string;
  fullname: string;
}
