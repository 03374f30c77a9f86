/** The longest search term (people and posts): the API refuses longer ones, the search field stops there. */
export const SEARCH_TERM_MAX = 64;
