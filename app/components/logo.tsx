export function Logo({ className = "h-9" }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-bold tracking-tight ${className}`}>
      <svg viewBox="0 0 32 32" aria-hidden="true" className="h-full w-auto">
        <rect width="32" height="32" rx="9" fill="#0a6fd6" />
        <path d="M10 22V10h10v3h-6.5v2.4H19v3h-5.5V22z" fill="#fff" />
      </svg>
      <span className="text-xl">Fanclub</span>
    </span>
  );
}
