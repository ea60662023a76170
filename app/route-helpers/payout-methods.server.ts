/**
 * The loader and action shared by /mine/coin-address-list and /mine/bank-card-list (spec §2):
 * the user's methods of one type; `?id=` a method's detail (the full address, to copy);
 * `?id=&confirm=delete` the delete confirm step (a page state: works without JavaScript).
 * A missing, deleted or another user's id answers 404 alike.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { DrawType } from "~/domain/withdraw";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { DeleteMethodSchema } from "~/forms/withdraw";
import { readForm } from "~/lib/http.server";
import { deleteMyMethod, findMyMethod, myMethods } from "~/services/withdraw/methods.server";
import { redirectWithFlash, requireRealUser, valueOf } from "~/services/web.server";

export const methodsPath = (drawType: DrawType) => (drawType === DrawType.Coin ? "/mine/coin-address-list" : "/mine/bank-card-list");

export async function methodsLoader({ request, context }: LoaderFunctionArgs, drawType: DrawType) {
  const user = await requireRealUser(context, request);
  const url = new URL(request.url);
  const idParam = url.searchParams.get("id");
  const [methods, found] = await Promise.all([
    myMethods(context, user.id, drawType).then((read) => valueOf(context, request, read)),
    idParam !== null && /^\d{1,15}$/.test(idParam)
      ? findMyMethod(context, user.id, Number(idParam), drawType).then((read) => valueOf(context, request, read))
      : null,
  ]);
  const detail = found && found.drawType === drawType ? found : null;
  const notFound = idParam !== null && !detail;
  const confirmDelete = detail !== null && url.searchParams.get("confirm") === "delete";
  return data({ drawType, methods, detail, notFound, confirmDelete }, { status: notFound ? 404 : 200 });
}

export async function methodsAction({ request, context }: ActionFunctionArgs, drawType: DrawType) {
  const user = await requireRealUser(context, request);
  const form = await readForm(request);
  const list = methodsPath(drawType);
  if (form.get("intent") !== Intent.DeleteMethod) throw new Response("Unknown action", { status: 400 });
  const input = parseFields(DeleteMethodSchema, form);
  const method = input.ok ? await valueOf(context, request, await findMyMethod(context, user.id, input.value.id, drawType)) : null;
  if (!input.ok || !method || method.drawType !== drawType || !(await deleteMyMethod(context, user, input.value.id))) {
    return redirectWithFlash(context, list, { kind: "error", message: "errors.not_found" });
  }
  return redirectWithFlash(context, list, { kind: "success", message: "wallet.deleted" });
}
