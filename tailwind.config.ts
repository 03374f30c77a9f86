import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  darkMode: "media",
  theme: {
    // Spec §2: up to 1024 px is mobile (`desk` starts after it), 1280 px and up is wide; `narrow` is the 700 px
    // threshold of some components. Listed in ascending order so that larger screens win in the CSS.
    screens: {
      sm: "640px",
      narrow: "700px",
      md: "768px",
      lg: "1024px",
      desk: "1025px",
      wide: "1280px",
      "2xl": "1536px",
    },
    extend: {
      colors: {
        brand: {
          50: "#eef7ff",
          100: "#d9edff",
          300: "#6cb6ff",
          500: "#1a8cff",
          600: "#0a6fd6",
          700: "#0857a8",
        },
      },
    },
  },
  plugins: [],
  // The variables Tailwind's transform, ring, shadow, gradient… utilities start from go to the elements whose
  // classes use them, not to every element and both its pseudo-elements (`*, ::before, ::after`): a feed's style
  // recalculation at 4× CPU about a fifth shorter; the same pixels on every page (docs/decisions/tailwind.md).
  experimental: { optimizeUniversalDefaults: true },
} satisfies Config;
