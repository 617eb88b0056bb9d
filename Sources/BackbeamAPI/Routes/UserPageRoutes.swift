/// The unsigned HTML pages behind the links of the default mails (§5.4.8). `GET` only shows a page and
/// never consumes the code (mail scanners prefetch links); `POST` acts. The forms post back to the page's
/// own URL, so they work under the Host and the `/backbeam/<project>/<env>` addressing alike.
enum UserPageRoutes {
    static func register(on table: EndpointTable, _ service: ServiceContext) {
        let unsigned = EndpointOptions(signed: false, establishesSession: true)
        table.on("GET", "/user/email/confirm", unsigned) { call in
            let code = call.parameters.value("code") ?? ""
            return page(200, "Confirm your email address", """
                <p>Confirm the email address of your \(escape(call.project.name)) account.</p>
                <form method="post"><input type="hidden" name="code" value="\(escape(code))">
                <button type="submit">Confirm</button></form>
                """)
        }
        table.on("POST", "/user/email/confirm", unsigned) { call in
            let code = call.parameters.value("code") ?? ""
            guard !code.isEmpty, try service.store.redeemCode(space: call.space, CodeRedemption(
                codeHash: UserSecrets.hash(code), kinds: [.verification, .reset], sessionHash: nil, now: call.now)) != nil else {
                return invalidCode()
            }
            return page(200, "Email address confirmed", "<p>Your email address is confirmed. You can go back to the app.</p>")
        }
        table.on("GET", "/user/email/reset", unsigned) { call in
            let code = call.parameters.value("code") ?? ""
            return page(200, "Choose a new password", resetForm(code: code, problem: nil))
        }
        table.on("POST", "/user/email/reset", unsigned) { call in
            let code = call.parameters.value("code") ?? ""
            let password = call.parameters.value("password") ?? ""
            if let repeated = call.parameters.value("password2"), repeated != password {
                return page(400, "Choose a new password", resetForm(code: code, problem: "The two passwords differ."))
            }
            let hash: String
            do {
                hash = try UserCredentials.hashPassword(password, cost: service.config.bcryptCost)
            } catch is BackbeamError {
                return page(400, "Choose a new password", resetForm(code: code, problem: "The password must have 1 to 72 bytes."))
            }
            guard !code.isEmpty, try service.store.redeemCode(space: call.space, CodeRedemption(
                codeHash: UserSecrets.hash(code), kinds: [.reset], passwordHash: hash, sessionHash: nil, now: call.now)) != nil else {
                return invalidCode()
            }
            return page(200, "Password changed", "<p>Your password was changed. You can log in with it in the app.</p>")
        }
    }

    static func resetForm(code: String, problem: String?) -> String {
        var html = problem.map { "<p class=\"problem\">\(escape($0))</p>\n" } ?? ""
        html += """
            <form method="post"><input type="hidden" name="code" value="\(escape(code))">
            <p><label>New password <input type="password" name="password" required maxlength="72"></label></p>
            <p><label>Repeat it <input type="password" name="password2" required maxlength="72"></label></p>
            <button type="submit">Change the password</button></form>
            """
        return html
    }

    static func invalidCode() -> BackbeamReply {
        page(400, "Invalid link", "<p>This link is invalid, expired or was already used.</p>")
    }

    static func page(_ status: Int, _ title: String, _ content: String) -> BackbeamReply {
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>body{font-family:sans-serif;max-width:32em;margin:3em auto;padding:0 1em}.problem{color:#b00}</style>
            </head><body><h1>\(escape(title))</h1>
            \(content)
            </body></html>

            """
        return BackbeamReply(response: BackbeamResponses.html(Array(html.utf8), status: status))
    }

    /// Text for HTML element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
