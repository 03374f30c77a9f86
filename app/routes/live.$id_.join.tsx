export { loader, meta, default } from "./live.$id";
