import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  darkMode: "media",
  theme: {
    extend: {
      colors: {
        brand: {
          50: "#eef7ff",
          100: "#d9edff",
          500: "#1a8cff",
          600: "#0a6fd6",
          700: "#0857a8",
        },
      },
    },
  },
  plugins: [],
} satisfies Config;
