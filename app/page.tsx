import { redirect } from "next/navigation";
import { currentUser } from "./session";

/** Home: annotators go to their labeling queue (the dashboard would show them verdicts), everyone else to the overview. */
export default async function Home() {
  const user = await currentUser();
  redirect(user?.role === "annotator" ? "/annotate" : "/overview");
}
