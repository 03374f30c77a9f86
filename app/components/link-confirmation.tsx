import { useSubmit } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { AppForm, SubmitButton } from "~/components/forms";

/**
 * Links in emails only open a page; the change they stand for happens on POST, so that a mail scanner
 * fetching the link changes nothing. With JavaScript the page submits itself at once; without it, the person
 * presses the button.
 */
export function LinkConfirmation({
  button,
  pendingText,
  autoSubmit,
  children,
}: {
  button: string;
  pendingText: string;
  autoSubmit: boolean;
  children?: ReactNode;
}) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const sent = useRef(false);

  useEffect(() => {
    if (autoSubmit && !sent.current && form.current) {
      sent.current = true;
      submit(form.current, { method: "post", replace: true });
    }
  }, [autoSubmit, submit]);

  return (
    <AppForm method="post" ref={form} className="space-y-4">
      {children}
      <SubmitButton pendingText={pendingText}>{button}</SubmitButton>
    </AppForm>
  );
}
