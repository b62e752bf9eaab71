module github.com/paperoffice/sdk-runtime-go

go 1.22
