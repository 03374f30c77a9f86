import { message } from "@shared/messages";

export const POST_NOT_FOUND = message("This post does not exist.");
export const ONLY_CREATORS_POST = message("Only creators can post.");
export const ALREADY_PUBLISHED = message("This post is already published.");
export const NOT_SCHEDULED = message("Only a scheduled post can be published now.");
export const MEDIA_NOT_ATTACHABLE = message("A photo or video could not be attached. Please upload it again.");

export const POSTS_PAGE_SIZE = 20;
