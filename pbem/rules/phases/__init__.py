"""phases"""
