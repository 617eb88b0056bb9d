import App

print(AppInfo.banner)
