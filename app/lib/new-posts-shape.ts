// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { PostList } from "@shared/contracts/posts";
import { postShape } from "~/lib/api-shapes";
import { array, object, type Shape } from "@shared/shape";

export const postListShape: Shape<PostList> = object({ posts: array(postShape) });
