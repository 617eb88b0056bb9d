import Files
import HTTP
import Storage

/// `POST /data/file/upload` (§5.3.1) and `PUT /data/file/upload/:id` (§5.3.2, `_new` creates): the `file`
/// part of a multipart body streamed into the blob store, then recorded with the request's commands in one
/// transaction. Uploads never need `auth` (iOS does not send it, §3.5).
enum FileUploadRoutes {
    static func register(on table: EndpointTable, _ service: ServiceContext, files: FileServices) {
        table.on("POST", "/data/file/upload") { call in
            try upload(call, id: nil, service, files)
        }
        table.on("PUT", "/data/file/upload/:id") { call in
            let id = call.path("id")
            if id == "_new" { return try upload(call, id: nil, service, files) }
            guard Identifiers.isObjectID(id) else { throw BackbeamError(.objectNotFound) }
            return try upload(call, id: id, service, files)
        }
    }

    /// Stores the upload as a new file (`id` nil, 201) or as the next version of file `id` (200).
    static func upload(_ call: BackbeamCall, id: String?, _ service: ServiceContext, _ files: FileServices) throws -> BackbeamReply {
        guard let part = call.fileParts.first(where: { $0.name == "file" }) else { throw BackbeamError(.missingFile) }
        var commands = try CommandParser.parse(call.parameters, entity: "file")
        let filename = part.filename.flatMap { SafeFileName.sanitize($0) } ?? "noname.dat"
        let catalogue = try service.store.catalogue(space: call.space)
        // Plain `title` / `description` parameters are the older SDKs' way to set them (§5.3.1); a new file's
        // title defaults to its name.
        let schema = call.project.schema
        addDefault(&commands, field: "title", type: .text, value: call.parameters.value("title") ?? (id == nil ? filename : nil),
                   catalogue: catalogue, schema: schema)
        addDefault(&commands, field: "description", type: .textarea, value: call.parameters.value("description"),
                   catalogue: catalogue, schema: schema)
        let blob: BlobReference
        do {
            blob = try Uploads.store(part.body, in: files.blobs,
                                     limits: UploadLimits(maxBytes: service.config.maxUploadBytes, refusesEmpty: false))
        } catch UploadError.tooLarge {
            throw BackbeamError(.requestTooLarge, "The file is too large")
        }
        let header = files.blobs.path(for: blob.hash).flatMap(ImageHeader.read(path:))
        let content = FileContent(blob: blob.hash, size: blob.size, filename: filename,
                                  mime: FileMIME.recorded(partType: part.contentType, filename: filename),
                                  width: header?.width, height: header?.height)
        let request = WriteRequest(space: call.space, entity: "file", id: id, commands: commands, schema: call.project.schema,
                                   now: call.now, limits: service.config.modelLimits)
        guard let record = try files.store.writeFile(request, content: content) else { throw BackbeamError(.objectNotFound) }
        return BackbeamReply(status: id == nil ? 201 : 200,
                             body: PageBodies.object(id: record.id, objects: [ResponseObject(record: record)]))
    }

    /// Adds `set-<field>=<value>` unless the request has a command for the field already. The type goes
    /// along as a suffix only while neither the schema nor the catalogue types the field, so a field typed
    /// otherwise by the app stays valid.
    static func addDefault(_ commands: inout CommandSet, field: String, type: FieldType, value: String?,
                           catalogue: FieldCatalogue, schema: ProjectSchema?) {
        guard let value, commands.commands(for: field) == nil else { return }
        let known = catalogue.field(field, of: "file")?.type != nil || schema?.field(field, of: "file") != nil
        var c = FieldCommands(field: field, suffix: known ? nil : type)
        c.set = value
        commands.fields.append(c)
    }
}
